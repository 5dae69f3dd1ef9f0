import AtelierCLI

QueryCommand.runAsTool()
