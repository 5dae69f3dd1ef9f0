import AtelierCLI

QueryCommand.main()
