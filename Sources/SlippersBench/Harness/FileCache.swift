import Foundation

/// The kernel's page cache, for one file.
enum FileCache {
    /// Asks the kernel to drop the cached pages of the file at `path`, so the next read comes from the disk.
    ///
    /// Written pages are flushed first (only clean pages can be dropped).
    /// `POSIX_FADV_DONTNEED` needs no privilege and touches this file only.
    ///
    /// - returns: `false` when the file could not be opened or the kernel refused.
    @discardableResult
    static func drop(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        fsync(descriptor)
        return posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_DONTNEED)) == 0
    }
}
