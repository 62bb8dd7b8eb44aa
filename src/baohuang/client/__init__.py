"""Clients of the server's protocol: the async seat client, the load tool and its chaos soak."""
