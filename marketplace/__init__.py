"""LeadVault: a real-estate investment lead marketplace."""
