from cribboard.cli import main

main()
