"""Rendering: layouts of plain card data drawn with reportlab (the only place that imports it)."""
