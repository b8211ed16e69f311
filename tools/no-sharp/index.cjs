// miniflare imports sharp lazily for the Images binding and answers 503 when the import fails.
throw new Error("sharp is not installed here (tools/no-sharp): Modelify binds no Images; see tools/no-sharp/README.md");
