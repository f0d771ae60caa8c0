"""The ingest pipeline's driver: `process` turns one source text into a Document (pure);
`ingest` runs a corpus folder through the stages into a new store and index."""

from indexer.pipeline.document import process
from indexer.pipeline.run import DocReport, IngestReport, data_dir, ingest

__all__ = ["DocReport", "IngestReport", "data_dir", "ingest", "process"]
