"""Demo traffic for the dev stack: real topics, a producer that keeps writing, a lagging group."""
