import AtelierCLI

ClassifyCommand.runAsTool()
