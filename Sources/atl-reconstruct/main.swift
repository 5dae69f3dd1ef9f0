import AtelierCLI

ReconstructCommand.runAsTool()
