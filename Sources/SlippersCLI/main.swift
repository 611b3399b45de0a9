print("slippers: the CLI is not built yet; see the README.")
