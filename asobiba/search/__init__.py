"""Game-independent search: alpha-beta for two-player perfect-information games, UCT and
determinized MCTS for chance, hidden information and more than two players."""
