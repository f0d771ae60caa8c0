"""treaty ingest pipeline: read -> clean -> languages -> normalise -> segment -> topics -> align
-> store -> index. Each stage is a module of pure functions over `indexer.models`."""
