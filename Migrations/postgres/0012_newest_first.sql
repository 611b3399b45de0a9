-- Whether a list's new items come first (newest first): NULL until said (`sync --newest-first`)
-- or detected. Such a list syncs again by reading from its first page until a page whose items
-- are all cached unchanged.
ALTER TABLE collections ADD COLUMN newest_first BOOLEAN;
