"""Many nodes (集群): a node's lobby (nodes), the leases and fencing tokens in Redis (leases),
the relay that carries a socket to the node that runs its table (relay), and the remote end of
it (remote)."""
