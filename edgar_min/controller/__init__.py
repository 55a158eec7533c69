"""The gate: whether a skill the model wrote is proposed, learned, or refused."""
