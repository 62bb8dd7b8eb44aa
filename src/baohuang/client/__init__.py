"""Clients of the server's protocol: the table socket (:mod:`.connection`), the HTTP API
(:mod:`.http`), a seat played by a bot (:mod:`.botseat`), the load tool and its chaos soak."""
