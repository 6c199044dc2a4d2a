"""Representation providers: static vectors, fastText, GloVe default, HF encoders and masked LMs."""
