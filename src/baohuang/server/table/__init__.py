"""A table (牌桌): its actor (the one task that changes it), its state and how it is folded
from its log, when it wakes up (liveness), its mailbox and scheduler, its seats, its log, its
results and replays."""
