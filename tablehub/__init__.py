"""tablehub: a Raspberry Pi table assistant for island and sea board games."""
__version__ = "0.1.0"
