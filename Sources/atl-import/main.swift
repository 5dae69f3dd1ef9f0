import AtelierCLI

ImportCommand.runAsTool()
