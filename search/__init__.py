"""Everything a user touches: query, cite, compare, export, the CLI and the web app."""
