// The tests use the bench's throwaway PostgreSQL server, temporary directories and child processes as their own.
@_exported import LocalPostgres
