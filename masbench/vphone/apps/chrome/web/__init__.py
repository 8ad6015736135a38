"""The small web the virtual Chrome browses: sites as data (sites.yaml), search over them, renderers."""
