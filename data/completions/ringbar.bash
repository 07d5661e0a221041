# bash completion for ringbar(1)
_ringbar() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    case $prev in
        msg)
            mapfile -t COMPREPLY < <(compgen -W "cycle-interval toggle-kernel-threads toggle-group-by reload" -- "$cur")
            return ;;
        check | import-waybar | -o)
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            return ;;
        --interval-ms | --bench)
            return ;;
    esac
    [ "$COMP_CWORD" -gt 1 ] && [ "${COMP_WORDS[1]}" = msg ] && return
    if [ "$COMP_CWORD" -gt 1 ] && [ "${COMP_WORDS[1]}" = import-waybar ]; then
        mapfile -t COMPREPLY < <(compgen -W "-o --force" -- "$cur")
        return
    fi
    mapfile -t COMPREPLY < <(compgen -W "--once --json --interval-ms --kernel-threads --waybar --bench msg check import-waybar --force --help --version" -- "$cur")
}
complete -F _ringbar ringbar
