"""The table protocol (``/ws/v1``): pydantic models of every message and the JSON Schema
written from them. Shared by the server and its clients."""
