"""What is shown to people: standings tables and progress."""
