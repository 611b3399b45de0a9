import ArgumentParser

/// The `slippers` command: inspect and operate a Slippers cache file.
@main
struct SlippersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "slippers",
        abstract: "Page HTTP/JSON APIs into an SQLite cache, then inspect and operate the cache.",
        discussion: """
            Every command works on one cache file, chosen with --db, else the SLIPPERS_DB \
            environment variable, else ./slippers.sqlite. Inspection commands print aligned \
            tables, or stable JSON with --json; they open the file read-only and never change it. \
            A postgres://user@host:port/dbname URL in --db or SLIPPERS_DB puts the cache in \
            PostgreSQL instead, for a fleet of workers (enqueue, worker, queue); sync and the \
            inspection commands print the same there.

            With --verbose (before the command's name, or after sync's, detect's or evict's), every HTTP \
            exchange is logged on stderr (method, URL, status, time, redirects, retries), and so are \
            evictions and revalidations; credentials and secret-looking query values are shown as \
            <redacted> or ***.

            Exit codes: 0 success, 1 failure (one line on stderr, `slippers: …`, names the problem; \
            `doctor` also exits 1 when the cache is not healthy), 64 usage error.
            """,
        version: "0.1.0",
        subcommands: [
            Sync.self, Detect.self, Lists.self, Pages.self, Items.self, Get.self, Stats.self,
            Invalidate.self, Evict.self, Purge.self, Vacuum.self, Export.self, Search.self, Views.self, Doctor.self,
            Edit.self, Outbox.self, Push.self, Budget.self,
            Enqueue.self, Worker.self, Queue.self,
            Demo.self,
        ]
    )

    @OptionGroup var logging: LoggingOptions
}
