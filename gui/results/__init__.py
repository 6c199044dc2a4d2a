"""The results screen: the papers' plots over a finished audit, with drill-down and export."""
