"""One module per statistic of the registry (engine.stats.registry): how an audit runs it on a
corpus, which columns its table guarantees, and how its table becomes a chart and key results."""
