"""Sentence embeddings: `sentence` (the embedder, packaged MiniLM by default), `onnx` (the ONNX Runtime backend)
and `model_folder` (what a local model folder holds). `sentence` imports `onnx`, never the other way.
"""
