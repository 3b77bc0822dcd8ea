"""Reading scientific papers: names of methods, datasets, metrics and tasks, and results stated in tables and prose."""
