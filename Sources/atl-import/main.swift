import AtelierCLI

ImportCommand.main()
