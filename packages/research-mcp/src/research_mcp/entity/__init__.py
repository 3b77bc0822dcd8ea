"""The parts of entity-extract: word lists, name strings, places, mentions, aliases and relations.

``research_mcp.entities`` assembles them into the tool's result; each module here owns one step.
"""
