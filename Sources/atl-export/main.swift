import AtelierCLI

ExportCommand.runAsTool()
