-- Where the reader of a list stopped: the key of the item an app last recorded for it (a number
-- or a text, as the item's key), so that the list opens there on the next launch.
ALTER TABLE collections ADD COLUMN reading_position;
