/// `count` and its noun, plural unless the count is 1: "1 page", "3 pages", "2 retries".
func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
}
