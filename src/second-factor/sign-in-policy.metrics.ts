import { Histogram, register } from 'prom-client';

/* prom-client keeps one global registry; reuse the metric when a test boots a second app. */
export const policyEvaluationSeconds =
  (register.getSingleMetric('sign_in_policy_evaluation_seconds') as Histogram | undefined) ??
  new Histogram({
    name: 'sign_in_policy_evaluation_seconds',
    help: 'Time the sign-in policy (step-up on risk) adds to a sign-in: one query, plus the decision',
    buckets: [0.00025, 0.0005, 0.00075, 0.001, 0.0015, 0.002, 0.003, 0.005, 0.01, 0.025, 0.05],
  });
