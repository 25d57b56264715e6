#!/bin/bash
# Starts a campaign whose case 2 hangs, kills its worker with SIGKILL while
# it hangs, and waits for the campaign (see worker-killed.test).
harness --pipeline=cpu --inject=hang-on-k1 --family=topk --count=3 --seed=2 --case-timeout=8s --out=out --progress=0 &
campaign=$!
sleep 3
pkill -9 -P "$campaign"
wait "$campaign"
echo "exit=$?"
