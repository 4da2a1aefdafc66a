// Every conformance case, by concern.
import type { Case } from '../harness';
import { headerCases } from './headers';
import { paramCases } from './params';
import { redirectCases } from './redirects';
import { requestCases } from './request';
import { routing } from './routing';
import { sendCases } from './send';
import { viewCases } from './views';

export const CASES: readonly Case[] = [...routing, ...paramCases, ...sendCases, ...headerCases, ...redirectCases, ...requestCases, ...viewCases];
