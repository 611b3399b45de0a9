// One import for apps: the vocabulary, the cache and HTTP, with the conveniences of this module.
@_exported import Slippers
@_exported import SlippersNetworking
@_exported import SlippersSQLite
@_exported import SlippersStorage
