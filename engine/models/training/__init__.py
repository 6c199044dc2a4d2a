"""Training: task data readers, the paper systems (SVM-tfidf, fastText + MLP, encoder +
regression head, fine-tuned classifiers) and `main.py train`. Kept apart from the scorers so
that auditing never imports training code."""
