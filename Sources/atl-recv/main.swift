import AtelierCLI

ReceiveCommand.runAsTool()
