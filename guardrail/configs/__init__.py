"""Shipped calibrated configurations (JSON)."""
