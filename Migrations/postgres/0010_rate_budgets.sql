-- Each origin's rate-limit budget, shared by every worker of the cache: what the newest answer
-- said (the window's limit, what is left, when it is whole again) less the requests taken since.
-- Times are epoch seconds of the workers' clocks.
-- Never edit this file once it has landed: a schema change is a new, higher-numbered file.

CREATE TABLE rate_budgets (
    origin TEXT PRIMARY KEY,
    limit_count INT,
    remaining INT,
    reset_at DOUBLE PRECISION,
    window_seconds DOUBLE PRECISION,
    updated_at DOUBLE PRECISION NOT NULL
);
