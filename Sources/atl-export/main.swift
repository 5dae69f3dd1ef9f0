import AtelierCLI

ExportCommand.main()
