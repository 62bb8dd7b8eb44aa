"""Words: the one message catalog (Chinese first, English) for the engine, the terminal, the
server and the browser. Imports nothing from the rest of the package."""
