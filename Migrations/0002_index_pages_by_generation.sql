-- A collection's pages of one generation, in order. The pages of the current
-- generation form a prefix (page i is saved only while page i - 1 is current),
-- so where that prefix ends (the next page to fetch) is one keyed lookup of
-- max(idx), however many pages the collection holds.
CREATE INDEX pages_by_generation ON pages (collection_id, generation, idx);
