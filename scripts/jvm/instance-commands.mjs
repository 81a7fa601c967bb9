// The stop and status commands of one background JVM instance in a folder (`npm run kafka`, `npm
// run s3`): stop ends the instance of `dir`; status says whether it runs and answers, with exit
// code 3 when none runs and 1 when it runs but does not answer.

/**
 * `what` names the instance ("Kafka broker"), `stop` and `status` are its module's functions, and
 * `address` picks what status shows it at (the brokers, the endpoint).
 */
export function instanceCommands({ what, dir, stop, status, address }) {
  return {
    async stop() {
      const stopped = await stop({ dir });
      console.log(stopped ? `${what} of ${dir} stopped.` : `No ${what} of ${dir} was running.`);
    },
    async status() {
      const found = await status({ dir });
      if (!found.running) {
        console.log(`No ${what} of ${dir} is running.`);
        process.exitCode = 3;
        return;
      }
      const answer = found.answering ? 'answering' : 'not answering';
      console.log(`${what} at ${address(found)} (pid ${found.pid}), ${answer}. Log: ${found.log}`);
      if (!found.answering) process.exitCode = 1;
    },
  };
}
