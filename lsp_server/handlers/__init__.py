"""The language server's LSP handlers, one module per area; each has ``register(server)``."""
