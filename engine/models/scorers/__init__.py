"""Inference: every scorer the audit can run (lexicons, prediction files, Hugging Face
classifiers and encoders with trained heads, scikit-learn systems). Each module is one kind of
system; `engine.models.specs.load_scorer` turns a spec string into one of them."""
