"""Helpers every part of the engine shares: atomic writes and prompts (io), one number and
p-value formatter (fmt), one user-facing error base (errors), one SVG forest-plot renderer (svg).

Why one home: before, each lived in whichever package needed it first (the atomic writer in
corpus/export, the confirm prompt in package/cli, five formatters giving three renderings of
p < .001); a change to any of them is now made once.
"""
