# fish completion for ringbar(1)
complete -c ringbar -f
complete -c ringbar -n __fish_use_subcommand -a msg -d 'Tell the running instances to act'
complete -c ringbar -n __fish_use_subcommand -a check -d 'Check a config file'
complete -c ringbar -n '__fish_seen_subcommand_from msg' -a 'cycle-interval toggle-kernel-threads toggle-group-by reload'
complete -c ringbar -n __fish_use_subcommand -a import-waybar -d 'Convert a Waybar config'
complete -c ringbar -n '__fish_seen_subcommand_from check' -F
complete -c ringbar -n '__fish_seen_subcommand_from import-waybar' -F
complete -c ringbar -n '__fish_seen_subcommand_from import-waybar' -s o -r -F -d 'Write to this file or directory'
complete -c ringbar -n '__fish_seen_subcommand_from import-waybar' -l force -d 'With -o: replace existing files'
complete -c ringbar -n __fish_use_subcommand -l once -d 'Take two samples and print the modules and their tooltips'
complete -c ringbar -n __fish_use_subcommand -l json -d 'With --once: one JSON object'
complete -c ringbar -n __fish_use_subcommand -l interval-ms -x -d 'The interval of --once or --waybar (ms)'
complete -c ringbar -n __fish_use_subcommand -l kernel-threads -d 'Include kernel threads in the process lists'
complete -c ringbar -n __fish_use_subcommand -l waybar -d 'Stream JSON lines for a Waybar custom module'
complete -c ringbar -n __fish_use_subcommand -l bench -x -d 'Take N samples back to back and print their timing'
complete -c ringbar -n __fish_use_subcommand -s h -l help -d 'Show the help'
complete -c ringbar -n __fish_use_subcommand -s V -l version -d 'Show the version'
