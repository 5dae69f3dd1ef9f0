import AtelierCLI

SendCommand.runAsTool()
