"""What the engines' tests run inside an engine's own process (a Spark Connect client, a torch rank)."""
