-- `--style` takes the pagination kinds' case names: a queued request's style name follows.
-- Requests are stored as JSON with sorted keys and no spaces, so a style name is the text
-- "name":"…" of the request's style.
UPDATE queue SET request = replace(request, '"name":"page"', '"name":"pageNumber"')
    WHERE request LIKE '%"name":"page"%';
UPDATE queue SET request = replace(request, '"name":"next"', '"name":"nextURL"')
    WHERE request LIKE '%"name":"next"%';
UPDATE queue SET request = replace(request, '"name":"link"', '"name":"linkHeader"')
    WHERE request LIKE '%"name":"link"%';
UPDATE queue SET request = replace(request, '"name":"after"', '"name":"afterLastItem"')
    WHERE request LIKE '%"name":"after"%';
UPDATE queue SET request = replace(request, '"name":"none"', '"name":"singlePage"')
    WHERE request LIKE '%"name":"none"%';
